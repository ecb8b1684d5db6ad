<?php

declare(strict_types=1);

require __DIR__ . '/autoload.php';

use Shop\Cart;
use Shop\Prices;

$cart = (new Cart())->add('tea', new Prices(350), 2)->add('cake', new Prices(420));
echo 'Total: ' . $cart->total()->format() . PHP_EOL;
