using System.Collections.Generic;
using System.Linq;

// SimpleJSON's JSONObject.Remove: two statements lost their ';' before a 'return' and a '}'
namespace Shop {
    public class Dict {
        private readonly Dictionary<string, int> m_Dict = new Dictionary<string, int>();
        public int Remove(int aNode) {
            var item = m_Dict.Where(k => k.Value == aNode).First();
            m_Dict.Remove(item.Key)
            return aNode;
        }
        public int Count() {
            return m_Dict.Count
        }
    }
}
