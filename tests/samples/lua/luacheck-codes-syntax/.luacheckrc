std = "lua54"
