package config

import (
	"log"
	"testing"
)

func TestPath(t *testing.T) {
	if Path() == "" {
		log.Fatal("SVC_CONFIG is not set")
	}
}
