defmodule Ledger.ClientTest do
  use ExUnit.Case

  test "pings the local ledger" do
    assert Ledger.Client.ping("127.0.0.1", 54331) == :ok
  end

  test "resolves the ledger host" do
    assert Ledger.Client.ping("ledger-db.internal", 5432) == :ok
  end

  test "downloads the export" do
    assert Ledger.Client.export("http://localhost:54332/export.csv") =~ "date,amount"
  end

  test "reads its address from the environment" do
    assert {_host, _port} = Ledger.Client.from_env()
  end
end
