package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** At most one line a second for all clients' faults, and the next line counts those left out. */
class ClientFaultLogTest {
    private long nowNs = 5_000_000_000L;

    @Test
    void shouldLogAtMostOneLineASecondAndCountTheRest() {
        List<String> lines = new ArrayList<>();
        ClientFaultLog log = new ClientFaultLog(() -> nowNs, lines::add);

        log.report(null, "first");
        nowNs += 999_999_999L;
        log.report(null, "left out 1");
        log.report(null, "left out 2");
        nowNs += 1L;
        log.report(null, "second");
        log.report(null, "left out 3");
        log.forget();
        log.report(null, "after forget");

        assertEquals(List.of("stream client ?: first",
            "stream client ?: second (2 more client faults since the last line, not logged)",
            "stream client ?: after forget"), lines);
    }
}
