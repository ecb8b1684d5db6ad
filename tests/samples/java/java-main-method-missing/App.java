public class App {
    static void main() {
        System.out.println("no String[] args: not a main method for java 17");
    }
}
