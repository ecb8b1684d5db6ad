const net = require('node:net');
// No server listens on 59999: the socket's 'error' event has no listener.
const socket = net.connect(59999, '127.0.0.1');
socket.on('connect', () => socket.end('PING\n'));
