#!/usr/bin/env bash
# A cart kept as lines of "name cents quantity".

cart_add() {
  local cart=$1 name=$2 cents=$3 quantity=${4:-1}
  printf '%s %s %s\n' "$name" "$cents" "$quantity" >>"$cart"
fi
}

cart_count() {
  local cart=$1 n=0 name cents quantity
  while read -r name cents quantity; do
    n=$((n + quantity))
  done <"$cart"
  echo "$n"
}

cart_total() {
  local cart=$1 sum=0 name cents quantity
  while read -r name cents quantity; do
    sum=$((sum + cents * quantity))
  done <"$cart"
  printf '%d.%02d EUR\n' $((sum / 100)) $((sum % 100))
}
