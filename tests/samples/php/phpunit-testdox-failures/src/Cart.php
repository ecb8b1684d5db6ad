<?php

declare(strict_types=1);

namespace Shop;

final class Cart
{
    /** @var list<array{name: string, price: Price, quantity: int}> */
    private array $items = [];

    public function add(string $name, Price $price, int $quantity = 1): self
    {
        $this->items[] = ['name' => $name, 'price' => $price, 'quantity' => $quantity];

        return $this;
    }

    public function count(): int
    {
        return count($this->items);
    }

    public function total(): Price
    {
        $total = new Price(0);
        foreach ($this->items as $item) {
            $total = $total->add(new Price($item['price']->getCents() * $item['quantity']));
        }

        return $total;
    }
}
