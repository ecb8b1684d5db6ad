<?php

declare(strict_types=1);

namespace Shop\Tests;

use PHPUnit\Framework\TestCase;
use Shop\Cart;
use Shop\Price;

final class CartTest extends TestCase
{
    public function testStartsEmpty(): void
    {
        $this->assertSame(0, (new Cart())->count());
    }

    public function testCountsQuantities(): void
    {
        $cart = (new Cart())->add('tea', new Price(350), 2)->add('cake', new Price(420));
        $this->assertSame(3, $cart->count());
    }

    public function testTotal(): void
    {
        $cart = (new Cart())->add('tea', new Price(350), 2)->add('cake', new Price(420));
        $this->assertSame('11.20 EUR', $cart->total()->format());
    }

    public function testRejectsMixedCurrencies(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        (new Price(1))->add(new Price(1, 'USD'));
    }

    public function testDiscounts(): void
    {
        $this->markTestSkipped('0 failures expected once discounts exist');
    }
}
