// Its usings were removed; mcs reports the types first (List, StringBuilder), and
// File and the LINQ Where only once those resolve.
namespace Shop {
    public class Cart {
        private readonly List<string> items = new List<string>();
        private readonly StringBuilder log = new StringBuilder();
        public int Count() { return items.Count; }
        public string Names() { return string.Join(",", items.Where(i => i.Length > 0)); }
        public void Save(string p) { File.WriteAllText(p, log.ToString()); }
    }
}
