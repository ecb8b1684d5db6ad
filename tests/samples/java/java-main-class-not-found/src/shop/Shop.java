package shop;

public class Shop {
    public static void main(String[] args) {
        System.out.println("shop");
    }
}
