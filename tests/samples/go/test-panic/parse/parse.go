package parse

import "strings"

func Field(line string, n int) string {
	parts := strings.Split(line, ",")
	return parts[n]
}
