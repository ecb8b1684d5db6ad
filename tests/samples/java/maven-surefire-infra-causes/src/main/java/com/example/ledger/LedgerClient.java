package com.example.ledger;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

public final class LedgerClient {
    private final String host;
    private final int port;

    public LedgerClient(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public static LedgerClient fromEnvironment() {
        String url = System.getenv("LEDGER_DB_URL");
        if (url == null) {
            throw new IllegalStateException("LEDGER_DB_URL is not set");
        }
        String[] parts = url.split(":");
        return new LedgerClient(parts[0], Integer.parseInt(parts[1]));
    }

    public boolean ping() throws IOException {
        InetAddress address = InetAddress.getByName(host);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2000);
            return socket.isConnected();
        }
    }
}
