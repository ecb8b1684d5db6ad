defmodule Shop.Price do
  @moduledoc "A price in cents, with its currency."
  defstruct cents: 0, currency: "EUR"

  def new(cents, currency \\ "EUR") when is_integer(cents), do: %__MODULE__{cents: cents, currency: currency}

  def add(%__MODULE__{currency: c} = a, %__MODULE__{currency: c} = b), do: %{a | cents: a.cents + b.cents}
  def add(_, _), do: raise(ArgumentError, "currency mismatch")

  def format(%__MODULE__{cents: cents, currency: currency}) do
    :io_lib.format("~.2f ~s", [cents / 100, currency]) |> IO.iodata_to_binary()
  end
end
