package com.example;

import java.util.Map;

/** Its imports of java.nio.file and java.io were removed; Settings is its own package's. */
public class Config {
    private final Map<String, String> values;

    public Config(Map<String, String> values) {
        this.values = values;
    }

    public static String read(Path path) throws IOException {
        return Files.readString(path);
    }

    public Settings settings() {
        return new Settings(values);
    }
}
