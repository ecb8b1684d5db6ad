package com.example;

public class Inventory {
    private final List<String> items = new ArrayList<>();

    public int count() {
        return itemCount;
    }

    public void add(String item) {
        items.add(item);
        logger.info("added " + item);
    }
}
