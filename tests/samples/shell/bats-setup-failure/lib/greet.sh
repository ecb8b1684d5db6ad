greet() { echo "hello $1"; }
