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
        return array_sum(array_column($this->items, 'quantity'));
    }

    public function total(): Price
    {
        $total = new Price(0);
        foreach ($this->items as $item) {
            $total = $total->add(new Price($item['price']->cents() * $item['quantity']));
        }

        return $total;
    }
}
