package com.example;

public class App {
    public static int add(int a, int b) {
        return a + b + 1;
    }

    public static String greet(String name) {
        return "Hello, " + name;
    }
}
