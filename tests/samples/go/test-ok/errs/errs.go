package errs

import "errors"

var ErrNotFound = errors.New("not found")

func Lookup(key string) error {
	if key == "" {
		return ErrNotFound
	}
	return nil
}
