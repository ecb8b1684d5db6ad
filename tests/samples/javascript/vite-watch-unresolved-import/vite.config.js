export default { build: { lib: { entry: 'src/index.js', formats: ['es'], fileName: 'shop' } } };
