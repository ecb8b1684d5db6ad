public class App {
    public static void main(String[] a) {
        Strin s = "x";
        int n = "y";
    }
}
