package demo;

import static java.lang.Math.max;
import static java.util.Objects.requireNonNull;

public class Sizes {
    static int widest(int[] widths) {
        requireNonNull(widths);
        int best = 0;
        for (int w : widths) {
            best = max(best, w);
        }
        return best;
    }
}
