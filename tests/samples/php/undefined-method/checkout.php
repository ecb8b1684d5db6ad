<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Shop\Cart;
use Shop\Price;

$cart = (new Cart())->add('tea', new Price(350), 2)->add('cake', new Price(420));
echo 'Total: ' . $cart->total()->format() . PHP_EOL;
