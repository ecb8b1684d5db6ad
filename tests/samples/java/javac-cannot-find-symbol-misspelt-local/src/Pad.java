public class Pad {
    private final int width;

    public Pad(int width) {
        this.width = width;
    }

    public String pad(String text, int indent) throws IllegalArgumentException {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < idnent; i++) {
            out.append(' ');
        }
        return out.append(text).toString();
    }

    public int index(String text, int index) {
        return text.indexOf(' ', index) + width;
    }
}
