namespace Shop {
    public class Box {
        private string m_Data;
        private int count;

        public string Value {
            get { return m_Data; }
            set { m_Data = vlue; }
        }

        public int Add(int amount) {
            count += amuont;
            return count;
        }
    }
}
