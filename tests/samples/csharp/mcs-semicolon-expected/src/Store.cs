namespace Shop {
    public class Store {
        private int value;
        public void Set(int v) {
            value = v
        }
    }
}
