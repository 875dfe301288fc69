package dev.infermon.llm.report;

import dev.infermon.llm.capacity.Headroom;
import dev.infermon.llm.efficiency.Figures;
import java.util.List;
import java.util.Optional;

/**
 * One model's part of a {@link Report}. Immutable.
 *
 * @param model {@code model_name}
 * @param traffic what it served in the window
 * @param slos its SLOs' attainment over the window: those of {@code llm.slos} for the model, else
 *     the alert pack's two ({@link SloAttainment#source})
 * @param worst its worst periods, worst first
 * @param headroom the capacity estimate per namespace the model runs in ({@code CapacityService}),
 *     each an estimate or its reason; empty when no pod of the model has the history's signals
 * @param efficiency its efficiency and cost figures over the window ({@code EfficiencyService});
 *     empty when none of its pods could be read
 */
public record ModelReport(
    String model,
    Traffic traffic,
    List<SloAttainment> slos,
    List<WorstPeriod> worst,
    List<Headroom> headroom,
    Optional<Figures> efficiency) {
  public ModelReport {
    if (model == null || traffic == null || efficiency == null) {
      throw new IllegalArgumentException("model, traffic and efficiency are required");
    }
    slos = List.copyOf(slos);
    worst = List.copyOf(worst);
    headroom = List.copyOf(headroom);
  }
}
