# frozen_string_literal: true

require_relative "shop/price"
require_relative "shop/cart"
