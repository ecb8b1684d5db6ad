<?php

declare(strict_types=1);

namespace Shop;

final class Price
{
    public function __construct(
        private readonly int $cents,
        private readonly string $currency = 'EUR',
    ) {
    }

    public function cents(): int
    {
        return $this->cents;
    }

    public function currency(): string
    {
        return $this->currency;
    }

    public function add(Price $other): Price
    {
        if ($other->currency !== $this->currency) {
            throw new \InvalidArgumentException('currency mismatch');
        }

        return new Price($this->cents + $other->cents, $this->currency);
    }

    public function format(): string
    {
        return sprintf('%.2f %s', $this->cents / 100, $this->currency);
    }
}
