defmodule Ledger.Client do
  @moduledoc "Talks to the ledger database and its HTTP export."

  def ping(host, port) do
    {:ok, socket} = :gen_tcp.connect(String.to_charlist(host), port, [:binary], 2000)
    :gen_tcp.close(socket)
    :ok
  end

  def export(url) do
    {:ok, {{_, 200, _}, _headers, body}} = :httpc.request(:get, {String.to_charlist(url), []}, [], [])
    body
  end

  def from_env do
    url = System.fetch_env!("LEDGER_DB_URL")
    [host, port] = String.split(url, ":")
    {host, String.to_integer(port)}
  end
end
