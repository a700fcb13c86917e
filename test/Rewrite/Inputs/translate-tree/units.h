// A header next to the main file that soaview leaves alone.
#pragma once
constexpr double kStep = 0.25;
