<?php
function f() {
  echo "x"
}
