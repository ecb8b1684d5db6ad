defmodule Shop.Cart do
  @moduledoc "The items a customer is about to buy."
  alias Shop.Price

  def new, do: []

  def empty?(cart, unused), do: cart == []

  def add(cart, name, %Price{} = price, quantity \\ 1), do: cart ++ [{name, price, quantity}]

  def count(cart), do: Enum.reduce(cart, 0, fn {_, _, q}, acc -> acc + q end)

  def total(cart) do
    Enum.reduce(cart, Price.new(0), fn {_, price, q}, sum -> Price.add(sum, Price.new(cents(price) * q)) end)
  end
end
