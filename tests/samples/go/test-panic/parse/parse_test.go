package parse

import "testing"

func TestField(t *testing.T) {
	if got := Field("a,b", 1); got != "b" {
		t.Errorf("got %q, want %q", got, "b")
	}
}

func TestFieldOutOfRange(t *testing.T) {
	if got := Field("a,b", 5); got != "" {
		t.Errorf("got %q, want empty", got)
	}
}
