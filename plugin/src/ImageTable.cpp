//===- ImageTable.cpp - The images of each offload binary -----------------===//
#include "ImageTable.h"

#include <algorithm>

namespace hetero {

void ImageTable::add(__tgt_device_image *Img, ImageKind Kind) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto &G = Groups[Img->EntriesBegin];
  if (!G)
    G = std::make_unique<ImageGroup>();
  if (Kind == ImageKind::Host)
    G->HostImage = Img;
  else if (Kind == ImageKind::Cuda &&
           std::find(G->CudaImages.begin(), G->CudaImages.end(), Img) ==
               G->CudaImages.end())
    G->CudaImages.push_back(Img);
}

ImageGroup *ImageTable::groupOf(const __tgt_device_image *Img) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Groups.find(Img->EntriesBegin);
  return It == Groups.end() ? nullptr : It->second.get();
}

} // namespace hetero
