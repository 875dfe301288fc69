/**
 * Running without local storage: {@link dev.infermon.remote.agent.AgentStorage} is the primary of
 * the storage fanout in agent and remote mode, keeping only what ordering checks need.
 */
package dev.infermon.remote.agent;
