package com.example;

public class App {
    public static int add(int a, int b) {
        int sum = a + b;
        return summ;
    }

    public static String greet(String name) {
        return "Hello " + name.toUpperCase(Locale.ROOT);
    }
}
