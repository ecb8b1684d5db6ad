package store

import (
	"net"
	"os"
	"strings"
	"time"
)

// Ping dials the cache server.
func Ping(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	return conn.Close()
}

// Token is the API token from the environment.
func Token() string {
	return os.Getenv("SHOP_TOKEN")
}

// Slug lower-cases a name and joins its words with dashes.
func Slug(name string) string {
	return strings.Join(strings.Fields(name), "-")
}
