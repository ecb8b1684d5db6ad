package com.example;

import java.util.Map;

public class Settings {
    public Settings(Map<String, String> values) {}
}
