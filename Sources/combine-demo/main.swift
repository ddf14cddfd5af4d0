import Combine
print("combine-demo")
