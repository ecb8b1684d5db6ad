package com.example.ledger;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LedgerClientTest {
    @Test
    void pingsTheLocalLedger() throws Exception {
        LedgerClient client = new LedgerClient("127.0.0.1", 54329);
        assertTrue(client.ping());
    }

    @Test
    void resolvesTheLedgerHost() throws Exception {
        LedgerClient client = new LedgerClient("ledger-db.internal", 5432);
        assertTrue(client.ping());
    }

    @Test
    void readsItsAddressFromTheEnvironment() throws Exception {
        assertTrue(LedgerClient.fromEnvironment().ping());
    }
}
