/**
 * Routers in front of the simulated engines: pages computed from the same engines' state, so what a
 * router counts agrees with what its engines count.
 */
package dev.infermon.simulator.router;
