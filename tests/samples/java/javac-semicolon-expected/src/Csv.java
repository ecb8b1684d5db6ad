public class Csv {
    public static String[] split(String line) {
        return line.split(",")
    }
}
