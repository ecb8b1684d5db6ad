package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AppTest {
    @Test
    void testAdd() {
        assertEquals(3, App.add(1, 2));
    }

    @Test
    void testGreet() {
        assertEquals("Hello, Ada", App.greet("Ada"));
    }

    @Test
    void testErrorHandling() {
        System.out.println("[ERROR] simulated: error handler reached, FAILURE expected here");
        assertThrows(NumberFormatException.class, () -> Integer.parseInt(App.greet("x")));
    }
}
