package errs

import (
	"errors"
	"testing"
)

func TestErrorHandling(t *testing.T) {
	if err := Lookup(""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("error: got %v, want %v", err, ErrNotFound)
	}
	t.Log("FAIL is not printed when the error is handled")
}
