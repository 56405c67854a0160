extension Strategy {
    /// One run of the engine with this strategy's policy, specialised for
    /// each policy type (the rules themselves live in LaunchflowModel/Rules,
    /// shared with the runtime).
    func execute(
        _ prepared: PreparedScenario, _ plan: StrategyPlan, _ inputs: RunInputs, _ buffers: inout SimulatorBuffers
    ) -> RunOutcome {
        switch self {
        case .serial: run(prepared, plan, inputs, plan.policy(as: SerialPolicy.self), &buffers)
        case .priority: run(prepared, plan, inputs, plan.policy(as: PriorityPolicy.self), &buffers)
        case .dag, .anchored: run(prepared, plan, inputs, plan.policy(as: DAGPolicy.self), &buffers)
        }
    }

    private func run<P: LaunchPolicy>(
        _ prepared: PreparedScenario, _ plan: StrategyPlan, _ inputs: RunInputs, _ policy: P,
        _ buffers: inout SimulatorBuffers
    ) -> RunOutcome {
        Simulator.run(
            scenario: prepared.scenario, plan: plan, run: inputs, policy: policy, from: prepared.t0, buffers: &buffers)
    }
}
