// A CUDA build run where no GPU is visible (docs/cuda.md, "Without a GPU").
// The program prints before its offloaded loop, through printf and through
// std::cout unsynchronised with stdio (both buffered when stdout is a file),
// then runs the loop: with "threads", from four threads at once. Whatever it
// printed before must reach stdout, and the runtime's one line stderr.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>
#include <vector>

struct Particle {
  double x, v;
};

void drift(std::vector<Particle *> &ps, double dt) {
  [[clang::soa_conversion_offload_compute]]
  for (Particle *p : ps)
    p->x += p->v * dt;
}

int main(int argc, char **argv) {
  std::ios::sync_with_stdio(false);
  std::vector<Particle> store(64, Particle{1, 2});
  std::vector<Particle *> ps;
  for (Particle &p : store)
    ps.push_back(&p);
  std::printf("printed before the loop\n");
  std::cout << "written to std::cout before the loop\n";
  if (argc > 1 && std::strcmp(argv[1], "threads") == 0) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        std::vector<Particle *> mine(ps);
        drift(mine, 0.5);
      });
    for (std::thread &t : threads)
      t.join();
  } else {
    drift(ps, 0.5);
  }
  std::printf("x = %g\n", store[0].x);
}
