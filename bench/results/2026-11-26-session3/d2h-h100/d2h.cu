// D2H of N MB into: fresh malloc, pre-touched (1 thread), pre-touched (8 threads), pinned (cudaHostAlloc, timed alloc), registered
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include <chrono>
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
int main(int argc,char**argv){
  size_t mb=argc>1?atoi(argv[1]):180, n=mb<<20;
  void*d; cudaMalloc(&d,n); cudaMemset(d,1,n); cudaDeviceSynchronize();
  for(int rep=0;rep<2;rep++){
  { char*h=(char*)malloc(n); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("fresh malloc      %6.1f ms  %5.2f GB/s\n",e*1e3,n/e/1e9); free(h);}
  { char*h=(char*)malloc(n); double t0=now(); memset(h,0,n); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("touched 1 thread  %6.1f ms (+touch %5.1f ms)\n",e*1e3,(t-t0)*1e3); free(h);}
  { char*h=(char*)malloc(n); double t0=now(); int T=8; std::vector<std::thread> th; for(int i=0;i<T;i++) th.emplace_back([=]{memset(h+n/T*i,0,n/T);}); for(auto&x:th)x.join(); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("touched 8 threads %6.1f ms (+touch %5.1f ms)\n",e*1e3,(t-t0)*1e3); free(h);}
  { char*h=(char*)malloc(n); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("fresh then again  %6.1f ms for both\n",e*1e3); free(h);}
  { void*h; double t0=now(); cudaHostAlloc(&h,n,0); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("pinned            %6.1f ms  %5.2f GB/s (+alloc %5.1f ms)\n",e*1e3,n/e/1e9,(t-t0)*1e3); t=now(); cudaFreeHost(h); printf("   freehost %5.1f ms\n",(now()-t)*1e3);}
  { char*h=(char*)malloc(n); double t0=now(); cudaHostRegister(h,n,0); double t=now(); cudaMemcpy(h,d,n,cudaMemcpyDeviceToHost); double e=now()-t; printf("registered        %6.1f ms (+register %5.1f ms)\n",e*1e3,(t-t0)*1e3); cudaHostUnregister(h); free(h);}
  }
  return 0;
}
