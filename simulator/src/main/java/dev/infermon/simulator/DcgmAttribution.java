package dev.infermon.simulator;

import java.util.Map;

/**
 * How the simulated dcgm-exporters attribute GPUs to pods: whole GPUs through the device plugin
 * (the default), one-GPU pods on MIG instances of one profile, or whole GPUs through DRA.
 *
 * <p>MIG profiles are those of an H100 80GB, with the instances one GPU holds (NVIDIA MIG user
 * guide, "Supported MIG Profiles": the A100-80GB and H100-80GB names 1g.10gb, 1g.20gb, 2g.20gb,
 * 3g.40gb, 4g.40gb, 7g.80gb; N g = N of the GPU's 7 compute slices).
 *
 * @param migProfile the MIG profile one-GPU pods run on, or empty for whole GPUs
 * @param dra whether dcgm-exporter attributes through DRA ({@code --kubernetes-enable-dra})
 */
public record DcgmAttribution(String migProfile, boolean dra) {
  /** Whole GPUs through the device plugin. */
  public static final DcgmAttribution DEVICE_PLUGIN = new DcgmAttribution("", false);

  /** The compute slices of the simulated GPU (an H100). */
  public static final int GPU_SLICES = 7;

  /** Profile -> {compute slices, instances per GPU, memory GB}. */
  private static final Map<String, int[]> PROFILES =
      Map.of(
          "1g.10gb", new int[] {1, 7, 10},
          "1g.20gb", new int[] {1, 4, 20},
          "2g.20gb", new int[] {2, 3, 20},
          "3g.40gb", new int[] {3, 2, 40},
          "4g.40gb", new int[] {4, 1, 40},
          "7g.80gb", new int[] {7, 1, 80});

  /** Validates. */
  public DcgmAttribution {
    if (migProfile == null) {
      throw new IllegalArgumentException("migProfile must not be null (empty for no MIG)");
    }
    if (!migProfile.isEmpty() && !PROFILES.containsKey(migProfile)) {
      throw new IllegalArgumentException(
          "MIG profile must be one of an H100 80GB's "
              + new java.util.TreeSet<>(PROFILES.keySet())
              + ", got "
              + migProfile);
    }
    if (dra && !migProfile.isEmpty()) {
      throw new IllegalArgumentException(
          "DRA with MIG is not simulated: dcgm-exporter maps a DRA MIG device to its parent GPU"
              + " and attributes no instance series");
    }
  }

  /** A MIG layout of {@code profile}. */
  public static DcgmAttribution mig(String profile) {
    return new DcgmAttribution(profile, false);
  }

  /** Whole GPUs attributed through DRA. */
  public static DcgmAttribution draClaims() {
    return new DcgmAttribution("", true);
  }

  /** Whether one-GPU pods run on MIG instances. */
  public boolean isMig() {
    return !migProfile.isEmpty();
  }

  /** The compute slices of one instance. */
  public int slices() {
    return PROFILES.get(migProfile)[0];
  }

  /** The instances of the profile one GPU holds. */
  public int instancesPerGpu() {
    return PROFILES.get(migProfile)[1];
  }

  /** One instance's memory in MiB. */
  public double memoryMiB() {
    return PROFILES.get(migProfile)[2] * 1024.0;
  }
}
