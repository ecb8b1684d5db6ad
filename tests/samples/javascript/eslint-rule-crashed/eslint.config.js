// A local plugin whose rule assumes TypeScript nodes (a typeAnnotation) in plain JavaScript.
const local = {
  rules: {
    "no-shadowed-items": {
      create() {
        return {
          Identifier(node) {
            if (node.name === "items") return node.parent.typeAnnotation.range[0];
          },
        };
      },
    },
  },
};

export default [{ plugins: { local }, rules: { "local/no-shadowed-items": "error" } }];
