package store

import "testing"

func TestPing(t *testing.T) {
	if err := Ping("127.0.0.1:59251"); err != nil {
		t.Fatalf("cache unreachable: %v", err)
	}
}

func TestToken(t *testing.T) {
	token := Token()
	if token == "" {
		t.Fatal("SHOP_TOKEN must be set")
	}
}

func TestSlug(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"simple", "Hello World", "hello-world"},
		{"with (parens) / slash", "A (B)", "a-(b)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Slug(c.in); got != c.want {
				t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
