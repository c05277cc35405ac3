-- exercises the interpreter: tables, strings, closures, coroutines, errors, math, sorting
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib", fib(22))

local t = {}
for i = 1, 200 do t[i] = (i * 7919) % 1009 end
table.sort(t)
print("sorted", t[1], t[100], t[200], #t)

local words = {}
for w in ("the quick brown fox jumps over the lazy dog"):gmatch("%a+") do
  words[#words + 1] = w:upper()
end
print(table.concat(words, ","))
print(("hello world"):gsub("o", "0"), ("%d items"):format(42), ("abc"):rep(3, "-"))

local co = coroutine.create(function(a)
  local s = a
  for i = 1, 3 do s = s + coroutine.yield(s) end
  return s * 10
end)
local acc = {}
local ok, v = coroutine.resume(co, 1)
while coroutine.status(co) ~= "dead" do
  acc[#acc + 1] = v
  ok, v = coroutine.resume(co, #acc)
end
print("coroutine", table.concat(acc, " "), v)

local ok2, err = pcall(function() error({code = 7}) end)
print("pcall", ok2, type(err), err.code)
print("error msg", select(2, pcall(function() local x = nil; return x.y end)) ~= nil)

print(string.format("%.3f %5.1e %g %d %x %s", math.pi, 12345.678, 1/3, math.maxinteger, 255, tostring(nil)))
print(math.floor(-3.5), math.ceil(-3.5), 7 // 2, 7 % -3, 2^10, 10 / 4, math.type(1), math.type(1.0))
print(8 // 0.0, -8 // 0.0, 0/0 ~= 0/0, math.huge, -math.huge)
print(1 << 62, 0xFF ~ 0x0F, ~0, 5 & 3, 5 | 3, -1 >> 60)
print(tostring(1e15), tostring(2^53), tostring(-0.0), 123456789012345)
print(tonumber("0x1p4"), tonumber("  12  "), tonumber("1e2"), tonumber("z", 36), tonumber("abc"))

local mt = {__add = function(a, b) return a.v + b.v end, __tostring = function(s) return "V(" .. s.v .. ")" end,
            __index = function(_, k) return k .. "!" end}
local a = setmetatable({v = 3}, mt)
local b = setmetatable({v = 4}, mt)
print("meta", a + b, tostring(a), a.missing)

local counter = 0
local function make() local n = 0; return function() n = n + 1; counter = counter + 1; return n end end
local c1, c2 = make(), make()
c1(); c1(); c2()
print("closures", c1(), c2(), counter)

local big = {}
for i = 1, 5000 do big["k" .. i] = i end
local sum = 0
for k, v in pairs(big) do sum = sum + v end
print("pairs sum", sum)
collectgarbage()
print("utf8", utf8.char(72, 228, 8364), utf8.len("häll€"), #"häll€")
print(string.byte("ABC", 1, -1), string.char(104, 105))
print(os.time{year=2020, month=1, day=1, hour=0} ~= nil, type(os.clock()))
print(select("#", 1, nil, 3), select(-1, 1, 2, 3))
local s = 0
for i = 10, 1, -3 do s = s + i end
print("loop", s)
print(string.find("hello world", "o w"), string.match("key=val", "(%w+)=(%w+)"))
print(#arg, arg[0] ~= nil)
