package com.example;

public class App {
    public static int add(int a, int b) {
        int sum = a + b;
        return summ;
    }
}
