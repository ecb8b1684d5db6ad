package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AppTest {
    @Test
    public void testAdd() {
        assertEquals(3, App.add(1, 2));
    }

    @Test
    public void testErrorHandling() {
        assertEquals(1, App.add(0, 0));
    }
}
