package demo;

import java.util.Locale;

public class Pad {
    static String pad(String s, int width) {
        requireNonNull(s);
        int n = max(0, width - s.length());
        return s.toUpperCase(Locale.ROOT) + " ".repeat(n);
    }
}
