using System.Collections.Generic;

// `using System.Collections;` was removed: the non-generic IEnumerator is meant
namespace Tree {
    public class Node : IEnumerable<Node> {
        private readonly List<Node> children = new List<Node>();
        public IEnumerator<Node> GetEnumerator() { return children.GetEnumerator(); }
        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() { return Children(); }
        private IEnumerator Children() { return children.GetEnumerator(); }
    }
}
