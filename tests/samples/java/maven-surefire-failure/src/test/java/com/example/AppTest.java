package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertTrue(App.greet("").startsWith("Hello"), "greeting prefix");
    }

    @Test
    void testNullName() {
        String name = null;
        assertEquals(4, name.length());
    }
}
